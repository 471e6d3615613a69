// The API client: one object per resource over one shared requester.

import { ContactsResource } from './resources/contacts';
import { DataPointsResource } from './resources/data-points';
import { MetricsResource } from './resources/metrics';
import { NotesResource } from './resources/notes';
import { PortfolioResource } from './resources/portfolio';
import { Requester, type RequesterOptions } from './requester';

export class ApiClient {
  readonly metrics: MetricsResource;
  readonly dataPoints: DataPointsResource;
  readonly contacts: ContactsResource;
  readonly notes: NotesResource;
  readonly portfolio: PortfolioResource;

  constructor(readonly requester: Requester) {
    this.metrics = new MetricsResource(requester);
    this.dataPoints = new DataPointsResource(requester);
    this.contacts = new ContactsResource(requester);
    this.notes = new NotesResource(requester);
    this.portfolio = new PortfolioResource(requester);
  }
}

export function createApiClient(options: RequesterOptions): ApiClient {
  return new ApiClient(new Requester(options));
}
