import type { TestDataRepository, TestDataReset } from '../repositories/test-data-repository.js';

export type { TestDataReset };

/**
 * Deletes every piece of a company's test data and resets its test number counters, in one
 * transaction (TestDataRepository.deleteAll says what goes and what stays). Live data is not touched.
 */
export async function resetTestData(testData: TestDataRepository, companyId: string): Promise<TestDataReset> {
  return testData.deleteAll(companyId);
}
