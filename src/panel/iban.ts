/**
 * An IBAN in groups of four, as banks print it: people compare accounts by eye here, and an
 * unbroken run of 22 or more characters is where a swapped digit goes unnoticed.
 */
export function groupedIban(iban: string): string {
  return iban.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}
