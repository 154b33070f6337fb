import type { Random } from '../shared/random';

/** People, departments and business partners of a seeded company. */

const FIRST_NAMES = [
  'Kari',
  'Ola',
  'Ingrid',
  'Lars',
  'Sofie',
  'Jonas',
  'Nora',
  'Emil',
  'Astrid',
  'Henrik',
  'Maja',
  'Sindre',
];
const LAST_NAMES = ['Nordmann', 'Hansen', 'Johansen', 'Olsen', 'Larsen', 'Andersen', 'Berg', 'Haugen', 'Dahl', 'Lie'];
const DEPARTMENTS = ['Administrasjon', 'Salg', 'Drift', 'Utvikling', 'Marked'];
const SUPPLIERS = [
  'Clas Ohlson AS',
  'Elkjøp Nordic AS',
  'Telenor Norge AS',
  'Fjordkraft AS',
  'Staples Norge AS',
  'Vy Buss AS',
  'Engros Grossisten AS',
  'Kontorleie Eiendom AS',
  'Finn.no AS',
  'IKEA AS',
];
const CUSTOMERS = [
  'Bergen Bygg AS',
  'Tromsø Fisk AS',
  'Oslo Design AS',
  'Stavanger Energi AS',
  'Trondheim Data AS',
  'Lillehammer Sport AS',
  'Bodø Havn AS',
  'Kristiansand Konsult AS',
  'Ålesund Møbler AS',
  'Drammen Transport AS',
];
const COMPANY_WORDS = ['Fjord', 'Nordlys', 'Vidde', 'Havblikk', 'Fjell', 'Skog', 'Bølge', 'Polar', 'Kyst', 'Elv'];
const COMPANY_TRADES = ['Bygg', 'Regnskap', 'Design', 'Teknikk', 'Handel', 'Konsult', 'Transport', 'Mat'];

/** A 9-digit organisation number with a valid modulus-11 check digit. */
function organizationNumber(random: Random): string {
  const weights = [3, 2, 7, 6, 5, 4, 3, 2];
  for (;;) {
    const digits = [9, ...Array.from({ length: 7 }, () => random.int(0, 9))];
    const sum = digits.reduce((acc, digit, i) => acc + digit * weights[i], 0);
    const check = 11 - (sum % 11);
    if (check === 10) continue;
    return [...digits, check === 11 ? 0 : check].join('');
  }
}

interface SeedPerson {
  index: number;
  firstName: string;
  lastName: string;
  email: string;
}

interface SeedDepartment {
  index: number;
  name: string;
  departmentNumber: string;
}

interface SeedPartner {
  index: number;
  name: string;
  organizationNumber: string;
  email: string;
}

export interface SeedParties {
  companyName: string;
  organizationNumber: string;
  departments: SeedDepartment[];
  employees: SeedPerson[];
  suppliers: SeedPartner[];
  customers: SeedPartner[];
}

function slugPart(value: string): string {
  return value
    .toLowerCase()
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o')
    .replace(/å/g, 'a')
    .replace(/[^a-z0-9]+/g, '');
}

/** The parties of company `index` of a provider, a pure function of the keys. */
export function seedParties(random: Random, index: number, demoName: string): SeedParties {
  const companyName =
    index === 0 ? demoName : `${random.pick(COMPANY_WORDS)} ${random.pick(COMPANY_TRADES)} ${index} AS`;
  const domain = `${slugPart(companyName.replace(/ AS$/, ''))}.no`;
  const employees = Array.from({ length: 4 }, (_, i) => {
    const firstName = FIRST_NAMES[(index + i * 5) % FIRST_NAMES.length];
    const lastName = LAST_NAMES[(index * 3 + i) % LAST_NAMES.length];
    return { index: i, firstName, lastName, email: `${slugPart(firstName)}.${slugPart(lastName)}@${domain}` };
  });
  const departments = DEPARTMENTS.slice(0, 3).map((name, i) => ({ index: i, name, departmentNumber: String(i + 1) }));
  const partner = (name: string, i: number): SeedPartner => ({
    index: i,
    name,
    organizationNumber: organizationNumber(random),
    email: `post@${slugPart(name.replace(/ AS$/, ''))}.no`,
  });
  return {
    companyName,
    organizationNumber: organizationNumber(random),
    departments,
    employees,
    suppliers: SUPPLIERS.map(partner),
    customers: CUSTOMERS.map(partner),
  };
}
