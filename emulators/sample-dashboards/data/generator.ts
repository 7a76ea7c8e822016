/**
 * The sample data set behind the dashboards: 24 months of sales, service and inventory
 * figures of one manufacturer and its distributors. It is generated from a seeded PRNG so
 * every start (and every test) sees the same numbers without shipping a data file. Each
 * distributor's rows belong to one of the sample companies (the `company` column that
 * row-level security rules filter on).
 */

export interface ProductLine {
  readonly id: string;
  readonly name: string;
  readonly unitPrice: number;
  readonly baseMargin: number;
  /** Units a distributor of size 1 sells in an average month. */
  readonly baseUnits: number;
  /** Months of cover distributors hold, relative to the average line. */
  readonly inventoryFactor: number;
}

interface Distributor {
  readonly id: string;
  readonly name: string;
  /** The company whose data the distributor's rows are (the `company` column). */
  readonly company: SampleCompany;
  readonly region: string;
  readonly size: number;
  readonly fillRate: number;
  readonly onTimeRate: number;
  readonly inventoryDays: number;
  /** Price discount against list, in margin points. */
  readonly discount: number;
}

/**
 * The additive figures of a fact. `inventoryValue` is the distributor's stock of the line at
 * month end, at cost; the others are flows over the month.
 */
export const MEASURES = [
  'revenue',
  'plannedRevenue',
  'units',
  'cogs',
  'linesOrdered',
  'linesFilled',
  'shipments',
  'onTimeShipments',
  'inventoryValue',
  'stockOuts',
] as const;
export type Measure = (typeof MEASURES)[number];

/** One month of one distributor for one product line. */
export type MonthlyFact = {
  readonly month: string;
  readonly company: SampleCompany;
  readonly distributorId: string;
  readonly productLineId: string;
  readonly region: string;
} & { readonly [M in Measure]: number };

export interface Dataset {
  readonly manufacturer: string;
  /** `YYYY-MM`, oldest first. */
  readonly months: readonly string[];
  readonly regions: readonly string[];
  readonly productLines: readonly ProductLine[];
  readonly distributors: readonly Distributor[];
  readonly facts: readonly MonthlyFact[];
}

export const MANUFACTURER = 'Tri-Valley Industrial';
export const DEFAULT_SEED = 20_260_105;
const FIRST_MONTH = { year: 2024, month: 1 };
const MONTH_COUNT = 24;

/** The values of the sample data's `company` column. */
export const SAMPLE_COMPANIES = ['Northwind Manufacturing', 'Contoso Distribution', 'Fabrikam Industries'] as const;
type SampleCompany = (typeof SAMPLE_COMPANIES)[number];

const REGIONS = ['Northeast', 'Southeast', 'Midwest', 'Southwest', 'West'] as const;

const PRODUCT_LINES: readonly ProductLine[] = [
  { id: 'pumps', name: 'Hydraulic Pumps', unitPrice: 1850, baseMargin: 0.34, baseUnits: 46, inventoryFactor: 1.25 },
  { id: 'valves', name: 'Valves & Fittings', unitPrice: 240, baseMargin: 0.41, baseUnits: 410, inventoryFactor: 0.95 },
  { id: 'drives', name: 'Motors & Drives', unitPrice: 1320, baseMargin: 0.29, baseUnits: 58, inventoryFactor: 1.15 },
  { id: 'filtration', name: 'Filtration', unitPrice: 95, baseMargin: 0.46, baseUnits: 980, inventoryFactor: 0.8 },
  { id: 'sensors', name: 'Sensors & Controls', unitPrice: 410, baseMargin: 0.52, baseUnits: 190, inventoryFactor: 0.9 },
];

const DISTRIBUTOR_PROFILES: readonly { name: string; region: (typeof REGIONS)[number] }[] = [
  { name: 'Great Lakes Industrial Supply', region: 'Midwest' },
  { name: 'Atlantic Fluid Power', region: 'Northeast' },
  { name: 'Keystone Flow Solutions', region: 'Northeast' },
  { name: 'Piedmont Industrial Partners', region: 'Southeast' },
  { name: 'Gulf Coast Process Supply', region: 'Southeast' },
  { name: 'Lone Star Automation', region: 'Southwest' },
  { name: 'Desert Motion Systems', region: 'Southwest' },
  { name: 'Prairie Equipment Co.', region: 'Midwest' },
  { name: 'Cascade Controls & Drives', region: 'West' },
  { name: 'Sierra Hydraulics', region: 'West' },
];

/** mulberry32: small, fast and good enough for sample data; same seed, same sequence. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const round3 = (n: number) => Math.round(n * 1000) / 1000;

function monthKeys(): string[] {
  return Array.from({ length: MONTH_COUNT }, (_, i) => {
    const index = FIRST_MONTH.month - 1 + i;
    const year = FIRST_MONTH.year + Math.floor(index / 12);
    return `${year}-${String((index % 12) + 1).padStart(2, '0')}`;
  });
}

function makeDistributors(random: () => number): Distributor[] {
  const between = (low: number, high: number) => low + (high - low) * random();
  return DISTRIBUTOR_PROFILES.map((profile, i) => ({
    id: `D${String(i + 1).padStart(3, '0')}`,
    name: profile.name,
    // Companies take turns, so each holds distributors of several regions.
    company: SAMPLE_COMPANIES[i % SAMPLE_COMPANIES.length]!,
    region: profile.region,
    size: round2(between(0.55, 1.6)),
    fillRate: round3(between(0.9, 0.99)),
    onTimeRate: round3(between(0.86, 0.985)),
    inventoryDays: Math.round(between(34, 78)),
    discount: round3(between(-0.02, 0.025)),
  }));
}

/** Industrial demand: soft in winter, strong in spring and early autumn. */
function seasonality(monthIndex: number): number {
  const calendarMonth = monthIndex % 12;
  return (
    1 + 0.09 * Math.sin(((calendarMonth - 2) / 12) * 2 * Math.PI) + 0.04 * Math.cos((calendarMonth / 6) * 2 * Math.PI)
  );
}

export function generateDataset(seed: number = DEFAULT_SEED): Dataset {
  const random = seededRandom(seed);
  const noise = (spread: number) => 1 + (random() * 2 - 1) * spread;
  const distributors = makeDistributors(random);
  const months = monthKeys();
  const facts: MonthlyFact[] = [];

  // Each distributor leans towards some lines; fixed per distributor for the whole period.
  const mix = new Map(distributors.map((d) => [d.id, PRODUCT_LINES.map(() => 0.6 + random() * 0.8)]));

  months.forEach((month, monthIndex) => {
    const trend = 1 + 0.007 * monthIndex;
    const season = seasonality(monthIndex);
    // Input costs rose through mid-2025, squeezing margins before price increases caught up.
    const costPressure = monthIndex >= 15 && monthIndex <= 20 ? 0.025 : 0;
    const priceIndex = 1 + 0.0025 * monthIndex;
    for (const distributor of distributors) {
      PRODUCT_LINES.forEach((line, lineIndex) => {
        const weight = mix.get(distributor.id)?.[lineIndex] ?? 1;
        const expectedUnits = line.baseUnits * distributor.size * weight * trend * season;
        const units = Math.max(0, Math.round(expectedUnits * noise(0.14)));
        const price = line.unitPrice * priceIndex * noise(0.02);
        const revenue = round2(units * price);
        // The plan assumed 3% more growth than the smooth trend, without the noise.
        const plannedRevenue = round2(expectedUnits * line.unitPrice * priceIndex * 1.03);
        const margin = line.baseMargin - distributor.discount - costPressure + (random() * 2 - 1) * 0.012;
        const cogs = round2(revenue * (1 - margin));

        const linesOrdered = Math.max(1, Math.round((units / (line.unitPrice > 1000 ? 1.6 : 6)) * noise(0.1)));
        const fillRate = Math.min(0.999, distributor.fillRate * noise(0.025));
        const linesFilled = Math.min(linesOrdered, Math.round(linesOrdered * fillRate));
        const shipments = Math.max(1, Math.round(linesFilled / 3.2));
        const onTimeShipments = Math.min(
          shipments,
          Math.round(shipments * Math.min(0.999, distributor.onTimeRate * noise(0.03))),
        );

        const days = distributor.inventoryDays * line.inventoryFactor * noise(0.12);
        const inventoryValue = round2((cogs / 30.4) * days);
        const shortfall = Math.max(0, 1 - fillRate - 0.015);
        const stockOuts = Math.round(shortfall * 55 * random() + (days < 32 ? 1 : 0));

        facts.push({
          month,
          company: distributor.company,
          distributorId: distributor.id,
          productLineId: line.id,
          region: distributor.region,
          revenue,
          plannedRevenue,
          units,
          cogs,
          linesOrdered,
          linesFilled,
          shipments,
          onTimeShipments,
          inventoryValue,
          stockOuts,
        });
      });
    }
  });

  return { manufacturer: MANUFACTURER, months, regions: REGIONS, productLines: PRODUCT_LINES, distributors, facts };
}

let cached: Dataset | undefined;

/** The data set the dashboards show, generated once per process. */
export function sampleDataset(): Dataset {
  cached ??= generateDataset();
  return cached;
}
