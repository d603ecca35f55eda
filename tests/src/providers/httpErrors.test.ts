import { HttpError } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { errorMessages, responseError, TransportError } from '../../../src/providers/httpErrors';

describe('errorMessages (the shared handler of failed calls)', () => {
  it('flattens field errors to "Field: message" lines with the field capitalised', () => {
    const error = responseError(400, { email: ['E-mail must be valid'], password: ['Too short', 'Too common'] });
    expect(errorMessages(error)).toEqual([
      'Email: E-mail must be valid',
      'Password: Too short',
      'Password: Too common',
    ]);
  });

  it('shows detail and non-field errors as the bare message', () => {
    expect(errorMessages(responseError(403, { detail: 'You do not have permission to perform this action.' }))).toEqual(
      ['You do not have permission to perform this action.'],
    );
    expect(errorMessages(responseError(400, { non_field_errors: ['Passwords must match'] }))).toEqual([
      'Passwords must match',
    ]);
  });

  it('flattens nested rule item errors under their field, named as a person names it', () => {
    const error = responseError(400, { rule_filter: [{ values: ['Field is required'] }, {}] });
    expect(errorMessages(error)).toEqual(['Campaign names: Field is required']);
    expect(
      errorMessages(responseError(400, { rule_task: { trigger_cpl: { cpl: ['Must be greater than 0'] } } })),
    ).toEqual(['Tasks: Must be greater than 0']);
  });

  it('writes keys as words, and leaves the messages of a link’s or connection’s token without a raw label', () => {
    expect(errorMessages(responseError(400, { first_name: ['Field is required'] }))).toEqual([
      'First name: Field is required',
    ]);
    expect(errorMessages(responseError(400, { 'judging.lag_hours': ['Must be at least 1'] }))).toEqual([
      'Judging: Must be at least 1',
    ]);
    expect(errorMessages(responseError(400, { token: ['This password reset link has expired.'] }))).toEqual([
      'This password reset link has expired.',
    ]);
  });

  it('shows "Internal error: " with the message for anything else', () => {
    expect(errorMessages(responseError(500, '<html>oops</html>'))).toEqual([
      'Internal error: Request failed with status code 500',
    ]);
    expect(errorMessages(responseError(502, null))).toEqual(['Internal error: Request failed with status code 502']);
    expect(errorMessages(new TransportError('network'))).toEqual(['Internal error: Network Error']);
    expect(errorMessages(new TransportError('aborted'))).toEqual(['Internal error: Request aborted']);
    expect(errorMessages(new TransportError('protocol'))).toEqual(['Internal error: Unsupported protocol']);
    expect(errorMessages(new Error('boom'))).toEqual(['Internal error: boom']);
  });

  it('shows nothing for a timeout or no error', () => {
    expect(errorMessages(new TransportError('timeout'))).toEqual([]);
    expect(errorMessages(null)).toEqual([]);
  });

  it('makes react-admin HttpErrors whose message reads well in a notification', () => {
    const withDetail = responseError(404, { detail: 'Not found.' });
    expect(withDetail).toBeInstanceOf(HttpError);
    expect(withDetail.message).toBe('Not found.');
    expect(responseError(400, { name: ['Field is required'] }).message).toBe('Name: Field is required');
    expect(responseError(500, null).message).toBe('Request failed with status code 500');
  });
});
