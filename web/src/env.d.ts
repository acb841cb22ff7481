declare module "*.css";

/** Whether this build carries Discord's SDK mock (web/build.mjs: only `--mock`, for tests). */
declare const MOCK_SDK: boolean;
