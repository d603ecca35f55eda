export * from './people';
export * from './adplatform';
export * from './rules';
export * from './engine';
export * from './history';
export * from './alerts';
export * from './judging';
export * from './backtest';
