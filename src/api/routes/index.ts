export { API_KEY_SCHEME, PUBLIC_ROUTES, ROUTES } from "./public-routes";
export {
  buildPath,
  type ErrorStatus,
  type HttpMethod,
  honoPath,
  type NamedSchema,
  type PathParamName,
  type PathParams,
  pathParamNames,
  type Route,
} from "./route";
