import { Injectable } from '@nestjs/common';
import {
  assertCompanyId,
  Clock,
  CompanyRepository,
  IdGenerator,
  NotFound,
  TokenVault,
  ValidationFailed,
  type CompanyDeletion,
} from '@app/domain';

/** An operator deletes a company (`npm run cli -- company delete`). */
export interface DeleteCompany {
  readonly companyId: string;
  /** Who deletes it, as the deletion log will name them: 1–200 characters. */
  readonly actor: string;
}

/**
 * Deletes a company: first destroys its data encryption key (its sealed provider tokens become
 * unreadable for good, backups included), then, in one transaction, removes its provider connection
 * and its record — kept when audit events reference it, since the audit trail is never deleted —
 * and logs who deleted what in the append-only deletion log, which outlives the company.
 *
 * The key goes first so that no failure can leave a deleted company with a readable key; a failure
 * after it leaves the company listed, and running the deletion again finishes it.
 */
@Injectable()
export class DeleteCompanyHandler {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly vault: TokenVault,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(command: DeleteCompany): Promise<CompanyDeletion> {
    assertCompanyId(command.companyId);
    const actor = command.actor.trim();
    if (actor.length === 0 || actor.length > 200) {
      throw new ValidationFailed('the operator deleting a company must be named (1–200 characters)', [
        { field: 'actor', message: 'must be 1–200 characters' },
      ]);
    }
    const company = await this.companies.findById(command.companyId);
    if (!company) throw new NotFound('company', command.companyId);
    await this.vault.destroyCompanyKey(company.id);
    return this.companies.delete({
      id: this.ids.next(),
      companyId: company.id,
      companyName: company.name,
      actor,
      deletedAt: this.clock.now(),
    });
  }
}
