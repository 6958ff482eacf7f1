import { ROLE_DAYS, useRoleDays } from './support/role-days';

/**
 * One working day per role at 1440×900 (issue 37; test/support/role-days.ts says what a day
 * checks): each clicks every action its pages offer. The same days at 390×844 are in
 * test/role-days-phone.test.ts, so that the two sizes run side by side.
 */
const day = useRoleDays({ screen: 'desktop', local: true });

for (const { role, title, script } of ROLE_DAYS) test(title, () => day(role, script), 300_000);

test('the member’s day with the local provider: approving a plan starts the sandbox by itself', async () => {
  await day(
    'member',
    async (d) => {
      const drafted = await d.world.app.call('POST', '/api/compute/plans', { token: d.person.token, body: { goal: 'Count the cells.' } });
      expect(drafted.status).toBe(201);
      await d.navigate('Compute');
      await d.page.getByText('Count the cells.').waitFor();
      d.doing = 'approving the plan';
      await d.page.getByRole('button', { name: 'Approve' }).click();
      await d.page.getByRole('table').getByText('Running', { exact: true }).waitFor({ timeout: 30_000 });
      expect(await d.page.locator('pre.command').count()).toBe(0); // no claim token to run by hand
      await d.check('compute-local-ready');
      await d.walk('/compute');
    },
    'local',
  );
}, 300_000);
