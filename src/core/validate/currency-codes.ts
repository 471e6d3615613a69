// ISO 4217 codes in use: the API only checks that a currency is three letters, so a typo (USS) would be stored.

/**
 * ISO 4217 List One (current funds and currencies) as of 2025, after XCG replaced ANG (Curaçao and
 * Sint Maarten, 2025), ZWG replaced ZWL (2024), SLE replaced SLL and EUR replaced HRK (2023).
 * XTS (reserved for testing) and XXX (no currency) are left out: neither is a profile's currency.
 * Update this list when ISO publishes an amendment that adds or withdraws a code.
 */
const CODES_IN_USE = (
  'AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD ' +
  'CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP ' +
  'GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR ' +
  'KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN ' +
  'MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD ' +
  'SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX ' +
  'USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF ' +
  'XPT XSU XUA YER ZAR ZMW ZWG'
).split(' ');

/** Codes withdrawn from the list that people still type, with the code that replaced each. */
const WITHDRAWN: Readonly<Record<string, string>> = {
  ANG: 'XCG',
  BYR: 'BYN',
  CUC: 'CUP',
  EEK: 'EUR',
  HRK: 'EUR',
  LTL: 'EUR',
  LVL: 'EUR',
  MRO: 'MRU',
  SKK: 'EUR',
  SLL: 'SLE',
  STD: 'STN',
  VEF: 'VES',
  ZMK: 'ZMW',
  ZWL: 'ZWG',
};

const IN_USE = new Set(CODES_IN_USE);

/** Every ISO 4217 code in use, in alphabetical order. */
export const ISO_4217_CODES: readonly string[] = CODES_IN_USE;

/** Whether `code` (upper case) is an ISO 4217 code in use. */
export function isCurrencyCode(code: string): boolean {
  return IN_USE.has(code);
}

/** The code that replaced a withdrawn one (HRK → EUR), or undefined when `code` was never on the list or is in use. */
export function replacementOf(code: string): string | undefined {
  return WITHDRAWN[code];
}
