// One error model: the classes, and the two functions that put any of them into words.

export * from './classes';
export { ownBudgetSentence, serverRateLimitSentence, shortReason, userSentence, type ReasonSubject } from './sentences';
