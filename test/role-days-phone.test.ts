import { ROLE_DAYS, useRoleDays } from './support/role-days';

/** The days of test/role-days.test.ts at 390×844: layout, names, axe and a screenshot a step. */
const day = useRoleDays({ screen: 'phone' });

for (const { role, title, script } of ROLE_DAYS) test(title, () => day(role, script), 300_000);
