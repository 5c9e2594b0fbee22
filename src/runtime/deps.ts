// What a running process holds and hands to the API, the admin API and the activities.
import type { Client } from '@temporalio/client';
import type { Config } from '../config/config.js';
import type { Sql } from '../db/database.js';
import type { Logger } from './log.js';

export interface Deps {
  config: Config;
  log: Logger;
  sql: Sql;
  temporal: Client;
}
