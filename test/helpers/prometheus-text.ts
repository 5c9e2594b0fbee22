// A parser of the Prometheus text exposition format (version 0.0.4), strict enough to fail a test on
// a malformed scrape: `# HELP` / `# TYPE` lines, samples `name{label="value",…} value [timestamp]`
// with the format's escapes (\\, \", \n), and every sample belonging to a declared family (a
// histogram's _bucket/_sum/_count, a summary's _sum/_count). Written here because the npm parser of the
// format (parse-prometheus-text-format 1.1.1, unmaintained) drops a histogram's labels, _sum and _count.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<Family['type'], string[]> = {
  counter: ['', '_total'],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

function unescapeHelp(text: string): string {
  return text.replace(/\\(\\|n)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
}

/** A sample value as Prometheus reads it (Go's ParseFloat: NaN and Inf in any case; prom-client writes `Nan`). */
function parseValue(text: string, line: string): number {
  if (/^\+?inf$/i.test(text)) return Infinity;
  if (/^-inf$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  const value = Number(text);
  if (text === '' || Number.isNaN(value)) throw new Error(`bad sample value "${text}" in: ${line}`);
  return value;
}

/** `{a="1",b="x\"y"}` at the start of `rest`: the labels and what follows the closing brace. */
function parseLabels(rest: string, line: string): { labels: Record<string, string>; after: string } {
  const labels: Record<string, string> = {};
  let i = 1;
  const fail = (why: string) => new Error(`bad labels (${why}) in: ${line}`);
  for (;;) {
    while (rest[i] === ' ') i += 1;
    if (rest[i] === '}') return { labels, after: rest.slice(i + 1) };
    const name = LABEL_NAME.exec(rest.slice(i))?.[0];
    if (!name) throw fail('label name');
    i += name.length;
    if (rest[i] !== '=' || rest[i + 1] !== '"') throw fail(`no ="… after ${name}`);
    i += 2;
    let value = '';
    for (;;) {
      const c = rest[i];
      if (c === undefined) throw fail('unterminated value');
      if (c === '"') break;
      if (c === '\\') {
        const next = rest[i + 1];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw fail(`escape \\${next}`);
        i += 2;
      } else {
        value += c;
        i += 1;
      }
    }
    i += 1;
    if (name in labels) throw fail(`label ${name} twice`);
    labels[name] = value;
    if (rest[i] === ',') i += 1;
    else if (rest[i] !== '}') throw fail('expected , or }');
  }
}

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const familyOf = (name: string): Family => {
    let family = families.get(name);
    if (!family) {
      family = { name, type: 'untyped', help: '', samples: [] };
      families.set(name, family);
    }
    return family;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*)(?: (.*))?$/.exec(line);
      if (!meta) continue; // a plain comment
      const family = familyOf(meta[2]!);
      if (meta[1] === 'HELP') family.help = unescapeHelp(meta[3] ?? '');
      else {
        if (!TYPES.has(meta[3] ?? '')) throw new Error(`bad TYPE in: ${line}`);
        if (family.samples.length) throw new Error(`TYPE after samples of ${family.name}`);
        family.type = meta[3] as Family['type'];
      }
      continue;
    }
    const name = NAME.exec(line)?.[0];
    if (!name) throw new Error(`bad sample line: ${line}`);
    let rest = line.slice(name.length);
    let labels: Record<string, string> = {};
    if (rest.startsWith('{')) {
      const parsed = parseLabels(rest, line);
      labels = parsed.labels;
      rest = parsed.after;
    }
    const fields = rest.trim().split(/\s+/);
    if (fields.length < 1 || fields.length > 2 || (fields[1] !== undefined && !/^-?\d+$/.test(fields[1])))
      throw new Error(`bad value or timestamp in: ${line}`);
    const owner = [...families.values()].find((family) => SUFFIXES[family.type].some((suffix) => family.name + suffix === name));
    if (!owner) throw new Error(`sample ${name} of no declared family`);
    owner.samples.push({ name, labels, value: parseValue(fields[0]!, line) });
  }
  return families;
}

/** The value of the one sample named `name` whose labels include `labels` (0 when there is none). */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const matches = [...families.values()]
    .flatMap((family) => family.samples)
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  if (matches.length > 1) throw new Error(`${matches.length} samples ${name} match ${JSON.stringify(labels)}`);
  return matches[0]?.value ?? 0;
}
