import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';

/** The standard `OTEL_TRACES_SAMPLER` values. */
export const samplerNameSchema = z.enum(['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio']);

export type SamplerName = z.output<typeof samplerNameSchema>;

/**
 * The sampler the standard variables name (the default, `parentbased_always_on`, records every
 * trace and follows a caller's sampled flag). `ratio` is `OTEL_TRACES_SAMPLER_ARG`: the share of
 * new traces a `traceidratio` sampler keeps.
 */
export function samplerFor(name: SamplerName, ratio: number): Sampler {
  const samplers: Record<SamplerName, () => Sampler> = {
    always_on: () => new AlwaysOnSampler(),
    always_off: () => new AlwaysOffSampler(),
    traceidratio: () => new TraceIdRatioBasedSampler(ratio),
    parentbased_always_on: () => new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    parentbased_always_off: () => new ParentBasedSampler({ root: new AlwaysOffSampler() }),
    parentbased_traceidratio: () => new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) }),
  };
  return samplers[name]();
}
