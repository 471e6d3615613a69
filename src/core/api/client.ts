// The API client: one object per resource over one shared requester.

import { ContactsResource } from './resources/contacts';
import { DataPointsResource } from './resources/data-points';
import { MetricsResource } from './resources/metrics';
import { NotesResource } from './resources/notes';
import { PortfolioResource } from './resources/portfolio';
import { Requester, type RequesterOptions } from './requester';

export class ApiClient {
  readonly metrics = new MetricsResource(this.requester);
  readonly dataPoints = new DataPointsResource(this.requester);
  readonly contacts = new ContactsResource(this.requester);
  readonly notes = new NotesResource(this.requester);
  readonly portfolio = new PortfolioResource(this.requester);

  constructor(private readonly requester: Requester) {}

  /** The clock the client waits on (virtual in tests), so steps and their deadlines agree with it. */
  now(): number {
    return this.requester.now();
  }

  /** Time left before the deadline the client was created with (Infinity without one). */
  remainingMs(): number {
    return this.requester.remainingMs();
  }
}

export function createApiClient(options: RequesterOptions): ApiClient {
  return new ApiClient(new Requester(options));
}
