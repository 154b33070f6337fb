import { CompanyEntity } from './company/company.entity';
import { EventEntity, EventSealEntity } from './event-store/event.entity';
import { ProposalEntity } from './proposal/proposal.entity';
import { PatternEntity } from './pattern/pattern.entity';
import { CompanySettingsEntity } from './settings/company-settings.entity';
import { OutboxEntity } from './outbox/outbox.entity';
import { CompanyKeyEntity } from './vault/company-key.entity';
import { AuthorizationRequestEntity, ProviderConnectionEntity } from './provider-connection/provider-connection.entity';
import { CompanyContextEntity } from './context/company-context.entity';
import { EmployeeMappingEntity, ExternalIdentityEntity } from './employees/employee-mapping.entity';

import { IdempotencyKeyEntity } from './idempotency/idempotency-key.entity';
import { ReceiptEntity } from './receipts/receipt.entity';
/** Every TypeORM entity schema of the service. */
export const ENTITIES = [
  CompanyEntity,
  EventEntity,
  EventSealEntity,
  ProposalEntity,
  PatternEntity,
  CompanySettingsEntity,
  OutboxEntity,
  CompanyKeyEntity,
  ProviderConnectionEntity,
  AuthorizationRequestEntity,
  CompanyContextEntity,
  EmployeeMappingEntity,
  ExternalIdentityEntity,
  IdempotencyKeyEntity,
  ReceiptEntity,
];
