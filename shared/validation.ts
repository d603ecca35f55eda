/**
 * Validation rules and messages of docs/contract.md#validation, as zod schemas shared by the browser forms
 * and the API (which answers 400 `{field: ["message"]}` with the same words).
 */
import { z } from 'zod';
import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './constants';

/** A phone number the phone rule accepts, shown under the field and in its refusal. */
export const PHONE_EXAMPLE = '+12 3456 7890';

export const MESSAGES = {
  required: 'Field is required',
  folderRequired: 'This field is required',
  email: 'E-mail must be valid',
  passwordRequired: 'Password is required',
  passwordMin: `Password must be at least ${MIN_PASSWORD_LENGTH} characters`,
  passwordMax: `Password must be at most ${MAX_PASSWORD_LENGTH} characters`,
  passwordConfirmationRequired: 'Password confirmation is required',
  passwordsMatch: 'Passwords must match',
  numeric: 'Field must be a number',
  integer: 'Field must be an integer',
  phone: `Phone number is not valid: use 10 digits, with an optional leading + and a space, dot or dash after the 2nd and 6th digits, like ${PHONE_EXAMPLE}`,
  min: (n: number) => `Field must be at least ${n} characters`,
  max: (n: number) => `Field must be at most ${n} characters`,
  controlCharacters: 'Field must not contain control characters',
} as const;

/**
 * The HTML standard's valid e-mail address (what `<input type="email">` accepts), with at least one
 * dot in the domain: no spaces, quotes, angle brackets or commas, so an address can never smuggle a
 * second recipient or a display name (`x<a@b>`) into a mail header.
 */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
/** Optional +, 2 digits, 4 digits, 4 digits, with optional separators between the groups. */
export const PHONE_PATTERN = /^\+?\d{2}[\s.-]?\d{4}[\s.-]?\d{4}$/;

/** C0 and C1 control characters (tab, newline, NUL…): never part of a name, and PostgreSQL cannot store NUL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
export const hasNoControlCharacters = (value: string) => !CONTROL_CHARACTERS.test(value);

type Rule = [test: (value: string) => boolean, message: string];

/**
 * A string checked by rules in order, reporting only the first that fails: an empty password is
 * 'Password is required', not that and 'at least 8 characters' too. (zod's `abort` would do the
 * same, but it also stops the object-level 'Passwords must match' check.)
 */
const checkedString = (requiredMessage: string, rules: Rule[], trim = true) => {
  const base = z.string({ error: requiredMessage });
  return (trim ? base.trim() : base).superRefine((value, ctx) => {
    const failed = ([[(v: string) => v.length > 0, requiredMessage], ...rules] as Rule[]).find(
      ([test]) => !test(value),
    );
    if (failed) ctx.addIssue({ code: 'custom', message: failed[1] });
  });
};

const text = (message: string = MESSAGES.required) => checkedString(message, []);
const longEnough: Rule = [(v) => v.length >= MIN_PASSWORD_LENGTH, MESSAGES.passwordMin];
const notTooLong: Rule = [(v) => v.length <= MAX_PASSWORD_LENGTH, MESSAGES.passwordMax];
const atMost = (n: number): Rule => [(v) => v.length <= n, MESSAGES.max(n)];
const plain: Rule = [hasNoControlCharacters, MESSAGES.controlCharacters];

export const requiredText = text();
/** A person's or group's name: required, at most MAX_NAME_LENGTH characters. */
export const name = checkedString(MESSAGES.required, [atMost(MAX_NAME_LENGTH), plain]);
export const email = checkedString(MESSAGES.required, [
  atMost(MAX_EMAIL_LENGTH),
  [(v) => EMAIL_PATTERN.test(v), MESSAGES.email],
]);
export const password = checkedString(MESSAGES.passwordRequired, [longEnough, notTooLong], false);
export const passwordConfirmation = checkedString(
  MESSAGES.passwordConfirmationRequired,
  [longEnough, notTooLong],
  false,
);
/** Phone is optional; when given it must match the phone rule. */
export const phone = z
  .string()
  .trim()
  .refine((v) => v === '' || PHONE_PATTERN.test(v), MESSAGES.phone)
  .nullish();
export const numeric = z
  .union([z.number(), z.string().trim().min(1, MESSAGES.required)])
  .refine((v) => Number.isFinite(Number(v)), MESSAGES.numeric);

function matching<T extends z.ZodRawShape>(shape: T, first: keyof T & string, second: keyof T & string) {
  return z.object(shape).superRefine((value, ctx) => {
    const v = value as Record<string, unknown>;
    if (typeof v[first] === 'string' && typeof v[second] === 'string' && v[second] !== '' && v[first] !== v[second]) {
      ctx.addIssue({ code: 'custom', path: [second], message: MESSAGES.passwordsMatch });
    }
  });
}

export const loginSchema = z.object({
  email: checkedString(MESSAGES.required, [plain]),
  password: z
    .string({ error: MESSAGES.required })
    .min(1, MESSAGES.required)
    .max(MAX_PASSWORD_LENGTH, MESSAGES.passwordMax),
});

export const accountSchema = z.object({
  first_name: name,
  last_name: name,
  phone,
  email,
});

export const changePasswordSchema = matching(
  { old_password: password, new_password: password, new_password2: passwordConfirmation },
  'new_password',
  'new_password2',
);

export const inviteSchema = z.object({
  group_id: z.coerce.number({ error: MESSAGES.required }).int(MESSAGES.required).positive(MESSAGES.required),
  email,
});

export const joinSchema = matching(
  {
    first_name: name,
    last_name: name,
    phone,
    password,
    password2: passwordConfirmation,
    invite_code: requiredText,
  },
  'password',
  'password2',
);

export const passwordResetRequestSchema = z.object({ email });

export const passwordResetConfirmSchema = matching(
  { password, password2: passwordConfirmation, token: requiredText },
  'password',
  'password2',
);

export type FieldErrors = Record<string, string[]>;

/** zod issues → the contract's `{field: ["message", …]}`; nested paths join with dots. */
export function toFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : 'non_field_errors';
    const messages = errors[key] ?? [];
    if (!messages.includes(issue.message)) errors[key] = [...messages, issue.message];
  }
  return errors;
}

/** A react-admin input validator from a zod schema: the first message, or undefined when valid. */
export function fieldValidator(schema: z.ZodType) {
  return (value: unknown) => {
    const result = schema.safeParse(value ?? undefined);
    return result.success ? undefined : result.error.issues[0]?.message;
  };
}

/** A react-admin form-level validator from an object schema: `{field: "message"}`. */
export function formValidator(schema: z.ZodType) {
  return (values: Record<string, unknown>) => {
    const result = schema.safeParse(values);
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const [field, list] of Object.entries(toFieldErrors(result.error))) errors[field] = list[0]!;
    return errors;
  };
}
