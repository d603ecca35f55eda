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
} from '../../../src/domain/validation';

describe('validation messages of SPEC §5', () => {
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
    ['12345', 'Phone number is not valid'],
    ['phone', 'Phone number is not valid'],
  ])('phone %j → %s', (value, message) => {
    expect(fieldValidator(phone)(value)).toBe(message);
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
      phone: ['Phone number is not valid'],
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
