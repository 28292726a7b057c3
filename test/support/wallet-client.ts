// What a real app does with an embedded wallet, for tests: one module per concern under
// test/support/wallet/ (keys, stamps, OTP encryption; passkeys and OIDC tokens join them).
export { newDeviceKey, type DeviceKey } from './wallet/keys';
export { signedHeaders, stamp, stampOf } from './wallet/stamp';
export { encryptOtp, otpTargetOf } from './wallet/otp';
export { openTestSession } from './wallet/sessions';
