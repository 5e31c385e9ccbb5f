import { setFlagsFromString } from 'node:v8';

/**
 * V8's allocation-site pretenuring off, first thing in the process. When a burst of requests meets
 * a cold process (a deploy behind a load balancer, a restart under load), V8 sees the request
 * objects survive its first scavenges and decides to allocate them in the old generation from then
 * on; they die young anyway, so every scavenge copies megabytes and mark-compacts run every few
 * hundred milliseconds. Such a process serves at about half its throughput for as long as it runs:
 * in 8 of 20 runs of 3 to 5 gateways side by side, one (mostly the first to take load) spent 105 to
 * 120 us of CPU a proxied request against its siblings' 57 to 64; in 6 runs with pretenuring off, none
 * did. Set at run time, so that every way of starting the platform gets it.
 */
setFlagsFromString('--no-allocation-site-pretenuring');
