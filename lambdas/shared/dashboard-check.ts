import { DescribeDashboardCommand } from '@aws-sdk/client-quicksight';
import { CATALOGUE_MESSAGES } from '#contracts/quicksight-admin.ts';
import { isAwsError } from './aws/config.ts';
import { quicksight } from './aws/quicksight.ts';
import { BadRequestError } from './errors.ts';
import { quicksightFailure, quicksightSettings } from './quicksight.ts';

/**
 * Refuses a catalogue entry for a dashboard QuickSight does not have: DescribeDashboard
 * answers ResourceNotFoundException for an unknown ID (QuickSight API Reference). Any other
 * failure is reported as one, so an entry is never created unchecked.
 */
export const requireQuickSightDashboard = async (dashboardId: string): Promise<void> => {
  const { accountId } = quicksightSettings();
  try {
    await quicksight.send(new DescribeDashboardCommand({ AwsAccountId: accountId, DashboardId: dashboardId }));
  } catch (error) {
    if (isAwsError(error, 'ResourceNotFoundException'))
      throw new BadRequestError(CATALOGUE_MESSAGES.unknownDashboard(dashboardId));
    throw quicksightFailure('Failed to check the dashboard in QuickSight', error);
  }
};
