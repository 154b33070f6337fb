/** Where @nestjs/swagger keeps an @ApiProperty's options (its API_MODEL_PROPERTIES). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

type Domain = typeof import('@app/domain');
type Dto = typeof import('./proposal.dto');

/** The swagger metadata of ProposalDto.route, from fresh modules after `edit` changed the bands table. */
function routeProperty(edit: (domain: Domain) => void = () => undefined): { enum: string[]; description: string } {
  let property: { enum: string[]; description: string } | undefined;
  jest.isolateModules(() => {
    edit(require('@app/domain') as Domain);
    const { ProposalDto } = require('./proposal.dto') as Dto;
    property = Reflect.getMetadata(API_MODEL_PROPERTIES, ProposalDto.prototype, 'route') as typeof property;
  });
  return property!;
}

describe('ProposalDto.route', () => {
  it('describes the routes from the confidence bands', () => {
    expect(routeProperty()).toMatchObject({
      enum: ['auto_approve', 'review_recommended', 'review_required'],
      description: 'auto_approve ≥ 0.9, review_recommended ≥ 0.7, review_required < 0.7',
    });
  });

  it('follows an edit of the bands table', () => {
    const property = routeProperty((domain) => {
      (domain.CONFIDENCE_BANDS[0] as { min: number }).min = 0.95;
    });
    expect(property.description).toBe('auto_approve ≥ 0.95, review_recommended ≥ 0.7, review_required < 0.7');
  });
});
