import { describe, expect, it } from 'vitest';
import {
  dashboardFeaturesVariable,
  deploymentDashboardFeatures,
  readDashboardFeaturesVariable,
} from '#contracts/dashboard-features.ts';

describe('the dashboard-features rule the construct writes and the embed function reads', () => {
  it('writes no feature as none and reads none back as no feature, never as the default', () => {
    expect(dashboardFeaturesVariable([])).toBe('none');
    expect(readDashboardFeaturesVariable('none')).toEqual({ features: [], unknown: [] });
  });

  it('writes the listed features comma-separated and reads them back in order, naming any unknown name', () => {
    expect(dashboardFeaturesVariable(['Schedules', 'Bookmarks'])).toBe('Schedules,Bookmarks');
    expect(readDashboardFeaturesVariable('Schedules, Bookmarks')).toEqual({
      features: ['Schedules', 'Bookmarks'],
      unknown: [],
    });
    expect(readDashboardFeaturesVariable('Schedules,Subscriptions').unknown).toEqual(['Subscriptions']);
  });

  it('takes the default when nothing is listed, exactly the list when one is, and folds the deprecated flag in', () => {
    expect(deploymentDashboardFeatures(undefined)).toEqual(['StatePersistence', 'Bookmarks']);
    expect(deploymentDashboardFeatures([])).toEqual([]);
    expect(deploymentDashboardFeatures([], true)).toEqual([]);
    expect(deploymentDashboardFeatures(undefined, false)).toEqual([]);
    expect(deploymentDashboardFeatures(['Schedules', 'StatePersistence'], false)).toEqual(['Schedules']);
  });
});
