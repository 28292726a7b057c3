// What a real app does with an embedded wallet, for tests: one module per concern under
// test/support/wallet/ (keys, stamps, OTP encryption; passkeys and OIDC tokens join them).
export { deviceKeyOf, newDeviceKey, type DeviceKey } from './wallet/keys';
export { signedHeaders, stamp, stampOf } from './wallet/stamp';
export { encryptOtp, otpTargetOf } from './wallet/otp';
export { otpLogin, SANDBOX_OTP, type WalletSession } from './wallet/login';
export { customerWithWallet } from './wallet/fixtures';
export { otpLoginOverHttp } from './wallet/http-login';
export { openTestSession } from './wallet/sessions';
