import { describe, expect, it } from 'vitest';
import {
  accountSchema,
  changePasswordSchema,
  fieldValidator,
  formValidator,
  joinSchema,
  loginSchema,
  email,
  password,
  phone,
  toFieldErrors,
  MESSAGES,
  PHONE_EXAMPLE,
} from '../../shared/validation';

describe('the contract validation messages', () => {
  it.each([
    ['', 'Field is required'],
    ['   ', 'Field is required'],
    ['not-an-email', 'E-mail must be valid'],
    ['a@b', 'E-mail must be valid'],
    ['someone@example.com', undefined],
  ])('email %j → %s', (value, message) => {
    expect(fieldValidator(email)(value)).toBe(message);
  });

  it.each([
    ['', 'Password is required'],
    ['short', 'Password must be at least 8 characters'],
    ['long-enough', undefined],
  ])('password %j → %s', (value, message) => {
    expect(fieldValidator(password)(value)).toBe(message);
  });

  it.each([
    ['+44 1234 5678', undefined],
    ['4412345678', undefined],
    ['44-1234-5678', undefined],
    ['', undefined],
    ['12345', MESSAGES.phone],
    ['phone', MESSAGES.phone],
  ])('phone %j → %s', (value, message) => {
    expect(fieldValidator(phone)(value)).toBe(message);
  });

  it('refuses a phone number saying what it accepts, with an example it does accept', () => {
    expect(MESSAGES.phone).toBe(
      'Phone number is not valid: use 10 digits, with an optional leading + and a space, dot or dash after the 2nd and 6th digits, like +12 3456 7890',
    );
    expect(fieldValidator(phone)('+1 (555) 010-0200')).toBe(MESSAGES.phone);
    expect(fieldValidator(phone)(PHONE_EXAMPLE)).toBeUndefined();
    expect(fieldValidator(phone)('1234567890')).toBeUndefined();
    expect(fieldValidator(phone)('12.3456.7890')).toBeUndefined();
  });

  it('login needs only both fields', () => {
    expect(formValidator(loginSchema)({ email: '', password: '' })).toEqual({
      email: 'Field is required',
      password: 'Field is required',
    });
    expect(formValidator(loginSchema)({ email: 'x', password: 'y' })).toEqual({});
  });

  it('password confirmation must match, reported on the confirmation field', () => {
    const result = changePasswordSchema.safeParse({
      old_password: 'old-password',
      new_password: 'new-password',
      new_password2: 'other-password',
    });
    expect(result.success).toBe(false);
    expect(toFieldErrors(result.error!)).toEqual({ new_password2: ['Passwords must match'] });
  });

  it('collects every field error of a form as the API answers them', () => {
    const result = joinSchema.safeParse({
      first_name: '',
      phone: '123',
      password: 'x',
      password2: '',
      invite_code: 'abc',
    });
    expect(toFieldErrors(result.error!)).toEqual({
      first_name: ['Field is required'],
      last_name: ['Field is required'],
      phone: [MESSAGES.phone],
      password: ['Password must be at least 8 characters'],
      password2: ['Password confirmation is required'],
    });
  });

  it('account requires names and a valid e-mail', () => {
    expect(formValidator(accountSchema)({ first_name: 'A', last_name: '', email: 'bad', phone: '' })).toEqual({
      last_name: 'Field is required',
      email: 'E-mail must be valid',
    });
  });
});

describe('limits that keep user text safe (ASVS 2.1.2, 5.1)', () => {
  it('refuses an address that carries a display name, a second recipient or spaces', () => {
    for (const bad of [
      'x<a@b.com>',
      'a@b.com, c@d.com',
      '"a b"@c.com',
      'a@b',
      'a b@c.com',
      `${'a'.repeat(250)}@b.com`,
    ]) {
      expect(email.safeParse(bad).success, bad).toBe(false);
    }
    for (const good of ['ada@example.com', 'first.last+tag@sub.example.co.uk', "o'brien@example.ie"]) {
      expect(email.safeParse(good).success, good).toBe(true);
    }
  });

  it('refuses passwords over 128 characters, on every form that takes one', () => {
    const long = 'x'.repeat(129);
    expect(password.safeParse(long).error?.issues[0]?.message).toBe('Password must be at most 128 characters');
    expect(password.safeParse('x'.repeat(128)).success).toBe(true);
    expect(toFieldErrors(loginSchema.safeParse({ email: 'a@b.co', password: long }).error!)).toEqual({
      password: ['Password must be at most 128 characters'],
    });
  });

  it('keeps names to 100 characters', () => {
    const result = accountSchema.safeParse({ first_name: 'A'.repeat(101), last_name: 'B', email: 'a@b.co' });
    expect(toFieldErrors(result.error!)).toEqual({ first_name: ['Field must be at most 100 characters'] });
  });
});
