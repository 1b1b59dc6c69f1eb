import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { PHONE_INVALID, PHONE_NOT_US } from '../../shared/verification';
import { DomainError } from '../core/domain-error';

/**
 * A US number as people type it ('(201) 555-0123', '201.555.0123', '+1 201 555 0123') -> E.164 ('+12015550123'),
 * parsed by libphonenumber-js: a number it knows to be invalid (a 555 area code, too few digits) is PHONE_INVALID;
 * a valid number of another country (Canada and the US territories share +1) is PHONE_NOT_US.
 */
export function parseUsPhone(input: string): string {
  const parsed = parsePhoneNumberFromString(input.trim(), 'US');
  if (parsed?.isValid() && parsed.country !== 'US') throw new DomainError('validation_error', PHONE_NOT_US);
  if (!parsed?.isValid() || parsed.country !== 'US' || parsed.ext)
    throw new DomainError('validation_error', PHONE_INVALID);
  return parsed.number;
}

/** E.164 -> the national form people read: '(201) 555-0123'. */
export function formatUsPhone(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatNational() ?? e164;
}
