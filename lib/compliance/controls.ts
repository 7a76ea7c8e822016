/**
 * NIST 800-53 control IDs as cdk-nag's rules state them at the end of their text, e.g.
 * "... - (Control IDs: AC-3, AC-4(21), SC-7b)." The IDs are taken from the rule, not from
 * a table kept here, so they follow the pack's version.
 */

const FAMILIES: Readonly<Record<string, string>> = {
  AC: 'Access Control',
  AT: 'Awareness and Training',
  AU: 'Audit and Accountability',
  CA: 'Assessment, Authorization, and Monitoring',
  CM: 'Configuration Management',
  CP: 'Contingency Planning',
  IA: 'Identification and Authentication',
  IR: 'Incident Response',
  MA: 'Maintenance',
  MP: 'Media Protection',
  PE: 'Physical and Environmental Protection',
  PL: 'Planning',
  PM: 'Program Management',
  PS: 'Personnel Security',
  PT: 'PII Processing and Transparency',
  RA: 'Risk Assessment',
  SA: 'System and Services Acquisition',
  SC: 'System and Communications Protection',
  SI: 'System and Information Integrity',
  SR: 'Supply Chain Risk Management',
};

/** The control IDs a rule's text names, in order, without repeats. */
export function controlIds(ruleText: string): string[] {
  const start = ruleText.search(/\(Control IDs?:/);
  if (start < 0) return [];
  const list = ruleText.slice(ruleText.indexOf(':', start) + 1, ruleText.lastIndexOf(')'));
  return [...new Set(list.split(',').map((id) => id.trim()).filter((id) => /^[A-Z]{2}-\d/.test(id)))];
}

/** The family of a control ID (`AC-4(21)` -> `AC`), with its name. */
export function familyOf(controlId: string): { code: string; name: string } {
  const code = controlId.split('-')[0] ?? controlId;
  return { code, name: FAMILIES[code] ?? 'Unknown family' };
}
