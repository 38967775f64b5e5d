import { cleanText } from '../clean-text.js';

// The XMP metadata of the PDF: Dublin Core and PDF properties that repeat the document
// information dictionary (PDF/A requires both to agree) and, for a Factur-X PDF, the Factur-X
// extension schema and its four properties, as Factur-X 1.07 prescribes. PDF/A identification
// (pdfaid) is added by pdfkit.

export interface XmpInfo {
  title: string;
  author: string;
  subject: string;
  keywords: string;
  creator: string;
  producer: string;
  created: Date;
  language: string;
}

const escape = (text: string) =>
  cleanText(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const xmpDate = (date: Date) => `${date.toISOString().split('.')[0]}Z`;

export function documentXmp(info: XmpInfo): string {
  return `
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <dc:format>application/pdf</dc:format>
  <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${escape(info.title)}</rdf:li></rdf:Alt></dc:title>
  <dc:creator><rdf:Seq><rdf:li>${escape(info.author)}</rdf:li></rdf:Seq></dc:creator>
  <dc:description><rdf:Alt><rdf:li xml:lang="x-default">${escape(info.subject)}</rdf:li></rdf:Alt></dc:description>
  <dc:language><rdf:Bag><rdf:li>${escape(info.language)}</rdf:li></rdf:Bag></dc:language>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
  <pdf:Producer>${escape(info.producer)}</pdf:Producer>
  <pdf:Keywords>${escape(info.keywords)}</pdf:Keywords>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
  <xmp:CreatorTool>${escape(info.creator)}</xmp:CreatorTool>
  <xmp:CreateDate>${xmpDate(info.created)}</xmp:CreateDate>
  <xmp:ModifyDate>${xmpDate(info.created)}</xmp:ModifyDate>
  <xmp:MetadataDate>${xmpDate(info.created)}</xmp:MetadataDate>
</rdf:Description>`;
}

export const FACTUR_X_FILE_NAME = 'factur-x.xml';
const FX = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';

const property = (name: string, description: string) => `
          <rdf:li rdf:parseType="Resource">
            <pdfaProperty:name>${name}</pdfaProperty:name>
            <pdfaProperty:valueType>Text</pdfaProperty:valueType>
            <pdfaProperty:category>external</pdfaProperty:category>
            <pdfaProperty:description>${description}</pdfaProperty:description>
          </rdf:li>`;

/** The Factur-X extension schema and its values: an EN 16931 invoice in factur-x.xml. */
export function facturXXmp(): string {
  return `
<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
  <pdfaExtension:schemas>
    <rdf:Bag>
      <rdf:li rdf:parseType="Resource">
        <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
        <pdfaSchema:namespaceURI>${FX}</pdfaSchema:namespaceURI>
        <pdfaSchema:prefix>fx</pdfaSchema:prefix>
        <pdfaSchema:property>
          <rdf:Seq>${property('DocumentFileName', 'The name of the embedded XML document')}${property('DocumentType', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER')}${property('Version', 'The actual version of the standard applying to the embedded XML document')}${property('ConformanceLevel', 'The conformance level of the embedded XML document')}
          </rdf:Seq>
        </pdfaSchema:property>
      </rdf:li>
    </rdf:Bag>
  </pdfaExtension:schemas>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:fx="${FX}">
  <fx:DocumentType>INVOICE</fx:DocumentType>
  <fx:DocumentFileName>${FACTUR_X_FILE_NAME}</fx:DocumentFileName>
  <fx:Version>1.0</fx:Version>
  <fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>
</rdf:Description>`;
}
