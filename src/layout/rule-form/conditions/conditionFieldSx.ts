/** A condition field's width: it grows from `least` pixels and never shrinks below it, so the row wraps. */
export const conditionFieldSx = (least: number) => ({ flex: `1 1 ${least}px`, minWidth: least });
