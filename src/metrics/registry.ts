/**
 * A small Prometheus registry: counters, gauges and histograms with labels, rendered in the text
 * exposition format. Enough for this service's few metrics, without a dependency.
 */
type Labels = Record<string, string>;

function labelText(labels: Labels): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([name, value]) => `${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`).join(',')}}`;
}

// On every request: cheap, and each call site passes its labels in one fixed order.
function key(labels: Labels): string {
  let text = '';
  for (const name in labels) text += `${name}\u0000${labels[name]}\u0001`;
  return text;
}

interface Metric { render(): string }

export class Counter implements Metric {
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(readonly name: string, readonly help: string) {}
  inc(labels: Labels = {}, by = 1): void {
    const entry = this.values.get(key(labels)) ?? { labels, value: 0 };
    entry.value += by;
    this.values.set(key(labels), entry);
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const { labels, value } of this.values.values()) lines.push(`${this.name}${labelText(labels)} ${value}`);
    return lines.join('\n');
  }
}

export class Gauge implements Metric {
  constructor(readonly name: string, readonly help: string, private readonly read: () => { labels: Labels; value: number }[]) {}
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`];
    for (const { labels, value } of this.read()) lines.push(`${this.name}${labelText(labels)} ${value}`);
    return lines.join('\n');
  }
}

export class Histogram implements Metric {
  private readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(readonly name: string, readonly help: string, private readonly buckets: readonly number[]) {}
  observe(labels: Labels, value: number): void {
    let entry = this.series.get(key(labels));
    if (!entry) {
      entry = { labels, counts: new Array<number>(this.buckets.length).fill(0), sum: 0, count: 0 };
      this.series.set(key(labels), entry);
    }
    for (let index = 0; index < this.buckets.length; index += 1) if (value <= this.buckets[index]!) entry.counts[index]! += 1;
    entry.sum += value;
    entry.count += 1;
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const { labels, counts, sum, count } of this.series.values()) {
      this.buckets.forEach((bound, index) => lines.push(`${this.name}_bucket${labelText({ ...labels, le: String(bound) })} ${counts[index]}`));
      lines.push(`${this.name}_bucket${labelText({ ...labels, le: '+Inf' })} ${count}`);
      lines.push(`${this.name}_sum${labelText(labels)} ${sum}`);
      lines.push(`${this.name}_count${labelText(labels)} ${count}`);
    }
    return lines.join('\n');
  }
}

export class Registry {
  private readonly metrics: Metric[] = [];
  register<T extends Metric>(metric: T): T {
    this.metrics.push(metric);
    return metric;
  }
  render(): string {
    return `${this.metrics.map((metric) => metric.render()).join('\n')}\n`;
  }
}
