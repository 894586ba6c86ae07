/**
 * The team module: the operator account record, roles with their permission grid and venue scope,
 * members, portal users and invitations (its tables: operators, roles, role_permissions, role_venues,
 * members, invitations).
 */
import type { Db } from '../../db/connect.js';
import type { Audit } from '../../platform/audit.js';
import type { AuthInfo } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import type { Mail } from '../../platform/mail/mail.js';
import type { Sessions } from '../auth/index.js';
import { createInvitationsService } from './invitations.service.js';
import { createMembersService } from './members.service.js';
import { createOperatorService, type AccountStatsSource, type PayoutStatusSource } from './operator.service.js';
import { createPortalUsersService } from './portal-users.service.js';
import { createRolesService } from './roles.service.js';
import type { TeamServices } from './team.routes.js';

export { teamRoutes, type TeamServices } from './team.routes.js';
export { createOperatorAccount } from './accounts.js';
export { operatorContact, paymentConnectStatus, setPaymentConnectStatus } from './operator-directory.js';
export { roleGrant } from './team.repository.js';
export type { PayoutStatusSource } from './operator.service.js';

export function createTeamServices(deps: {
  db: Db;
  clock: Clock;
  sessions: Sessions;
  mail: Mail;
  publicBaseUrl: string;
  payouts: PayoutStatusSource;
  reachableVenueIds(auth: AuthInfo): Promise<string[]>;
  accountStats: AccountStatsSource;
  audit: Audit;
}): TeamServices {
  return {
    operators: createOperatorService(deps),
    members: createMembersService(deps),
    roles: createRolesService(deps),
    users: createPortalUsersService(deps),
    invitations: createInvitationsService(deps),
  };
}
