import './stat-cards.css';

export interface Stat {
  readonly label: string;
  readonly value: number;
  readonly tone?: 'neutral' | 'success' | 'danger';
}

/** A row of figures (e.g. Total Users, Active Users, Disabled Users). */
export function StatCards({ stats }: { readonly stats: readonly Stat[] }) {
  return (
    <dl className="stat-cards">
      {stats.map((stat) => (
        <div key={stat.label} className={`stat-card stat-${stat.tone ?? 'neutral'}`}>
          <dt>{stat.label}</dt>
          <dd>{stat.value.toLocaleString()}</dd>
        </div>
      ))}
    </dl>
  );
}
