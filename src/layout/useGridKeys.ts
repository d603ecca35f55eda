/**
 * The keyboard half of the ARIA grid pattern for grids of toggle buttons: one Tab stop (the cell
 * last focused holds tabIndex 0, every other -1), the arrow keys move between cells, Home and End
 * to the row's ends, Ctrl+Home and Ctrl+End to the grid's corners. Space and Enter are the
 * buttons' own. Cells carry data-grid-row / data-grid-col; a missing cell (a corner) is skipped.
 */
import { useCallback, useState, type FocusEvent, type KeyboardEvent } from 'react';

export interface GridPosition {
  row: number;
  col: number;
}

const positionOf = (element: Element | null): GridPosition | null => {
  const cell = element?.closest('[data-grid-row]');
  if (!cell) return null;
  return { row: Number(cell.getAttribute('data-grid-row')), col: Number(cell.getAttribute('data-grid-col')) };
};

const cellAt = (grid: HTMLElement, { row, col }: GridPosition) =>
  grid.querySelector<HTMLElement>(`[data-grid-row="${row}"][data-grid-col="${col}"]`);

/** Where a key sends the focus from `at` in a rows×cols grid, or null when it does not move it. */
export function nextPosition(key: string, ctrl: boolean, at: GridPosition, rows: number, cols: number) {
  switch (key) {
    case 'ArrowRight':
      return { row: at.row, col: Math.min(cols - 1, at.col + 1) };
    case 'ArrowLeft':
      return { row: at.row, col: Math.max(0, at.col - 1) };
    case 'ArrowDown':
      return { row: Math.min(rows - 1, at.row + 1), col: at.col };
    case 'ArrowUp':
      return { row: Math.max(0, at.row - 1), col: at.col };
    case 'Home':
      return ctrl ? { row: 0, col: 0 } : { row: at.row, col: 0 };
    case 'End':
      return ctrl ? { row: rows - 1, col: cols - 1 } : { row: at.row, col: cols - 1 };
    default:
      return null;
  }
}

export function useGridKeys(rows: number, cols: number, start: GridPosition) {
  const [active, setActive] = useState<GridPosition>(start);

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      const at = positionOf(event.target as Element);
      if (!at) return;
      const next = nextPosition(event.key, event.ctrlKey || event.metaKey, at, rows, cols);
      if (!next) return;
      event.preventDefault();
      const target = cellAt(event.currentTarget, next);
      if (!target) return;
      setActive(next);
      target.focus();
    },
    [rows, cols],
  );

  const onFocus = useCallback((event: FocusEvent<HTMLElement>) => {
    const at = positionOf(event.target as Element);
    if (at) setActive(at);
  }, []);

  const tabIndexOf = (row: number, col: number) => (row === active.row && col === active.col ? 0 : -1);

  return { gridProps: { onKeyDown, onFocus }, tabIndexOf };
}
