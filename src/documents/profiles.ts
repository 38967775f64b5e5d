import type { Profile } from './model.js';

// Specification identifiers (BT-24) and business process (BT-23) of each profile.

export const PEPPOL_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

export const CUSTOMIZATION_ID: Record<Profile, string> = {
  en16931: 'urn:cen.eu:en16931:2017',
  peppol: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
  xrechnung: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
};

/** BT-23: Peppol requires it (PEPPOL-EN16931-R001), and XRechnung 3.0 takes that rule over. */
export const BUSINESS_PROCESS: Record<Profile, string | null> = {
  en16931: null,
  peppol: PEPPOL_PROCESS,
  xrechnung: PEPPOL_PROCESS,
};
