// One error model: the classes, and the two functions that put any of them into words.

export * from './classes';
export { dailyQuotaOf, type DailyQuota } from './platform-quotas';
export {
  overdueScheduleSentence,
  ownBudgetSentence,
  serverRateLimitSentence,
  shortReason,
  userSentence,
  type ReasonSubject,
  type SentencePlace,
} from './sentences';
