/**
 * English messages: react-admin's own, then each area's file. Area files own their namespace; a
 * resource's labels live with the resource (its `i18n`), merged over these by App.tsx.
 */
import englishMessages from 'ra-language-english';
import activity from './en/activity';
import alerts from './en/alerts';
import app from './en/app';
import backtest from './en/backtest';
import budgets from './en/budgets';
import campaigns from './en/campaigns';
import conditions from './en/conditions';
import conflicts from './en/conflicts';
import judging from './en/judging';
import leadOutcomes from './en/leadOutcomes';
import overview from './en/overview';
import people from './en/people';
import rules from './en/rules';
import templates from './en/templates';
import { mergeMessages } from './merge';

export const en = mergeMessages(
  englishMessages as unknown as Record<string, unknown>,
  app,
  people,
  rules,
  campaigns,
  activity,
  backtest,
  judging,
  leadOutcomes,
  conditions,
  budgets,
  conflicts,
  overview,
  templates,
  alerts,
);

export default en;
