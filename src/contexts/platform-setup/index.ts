// The platform-setup context's public face: a platform created with its accounts and signing keys.
export { createPlatform } from './services/platform-setup';
