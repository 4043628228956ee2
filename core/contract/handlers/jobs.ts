import type { FeatureHandlers, HandlerContext } from "./handler-types.ts";

// Cancelling a running job by any id it is known by (job-tracker.ts).

export function jobHandlers({ jobs }: HandlerContext): FeatureHandlers<"jobs.cancel"> {
  return {
    "jobs.cancel": async (params) => ({ cancelled: jobs.cancel(params.jobId) }),
  };
}
