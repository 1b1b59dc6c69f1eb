import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

export function Component() {
  return (
    <section className="mx-auto max-w-4xl px-4 py-16 text-center">
      <title>RuralRoute — Share the Road, Share the Load</title>
      <h1 className="text-4xl font-bold tracking-tight md:text-5xl">Share the Road, Share the Load</h1>
      <p className="mx-auto mt-4 max-w-2xl text-lg text-muted-foreground">
        Drivers share the trips they already make; neighbours get groceries, pharmacy pickups and parcels carried.
      </p>
      <Button asChild size="lg" className="mt-8">
        <Link to="/auth?tab=signup">Get Started</Link>
      </Button>
    </section>
  );
}
