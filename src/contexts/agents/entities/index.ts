export { Agent } from './Agent';
export { AgentAccessToken } from './AgentAccessToken';
export { AgentAction } from './AgentAction';
export { AgentDeviceCode } from './AgentDeviceCode';
export { AgentQuote } from './AgentQuote';
