/**
 * The programs each image of docker-compose.yml ships, as far as its healthcheck needs them. A
 * healthcheck whose program the image lacks never passes (the default `nats` image is built from
 * scratch: no shell, no wget), and every service waiting for it stalls. The compose test checks
 * every healthcheck against this table; with a Docker engine, the compose test checks the table
 * against the images themselves.
 */
export const imagePrograms: Record<string, readonly string[]> = {
  'mongo:7': ['mongod', 'mongosh'],
  'nats:2.10-alpine': ['nats-server', 'wget'],
  'redis:7': ['redis-server', 'redis-cli'],
  // The load balancer in front of the gateways (busybox's wget).
  'nginx:1.27-alpine': ['nginx', 'wget'],
  // The platform image: node:20-bookworm-slim with the bundle (Dockerfile).
  'platform:local': ['node'],
};
