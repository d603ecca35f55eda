/** How a request's call to the ad platform fails: with a 502 the user should see, not a server bug. */
import { ApiError } from '../http/errors';
import { errorMessage } from '../errorMessage';

/** The ad platform answered with a failure the user should see (not a server bug). */
export const platformError = (error: unknown) =>
  new ApiError(502, { detail: `The ad platform did not answer: ${errorMessage(error)}` });

/** For a platform call's `.catch`: its failure thrown on as a platformError. */
export const throwPlatformError = (error: unknown): never => {
  throw platformError(error);
};
