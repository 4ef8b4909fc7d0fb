/** Rules from an xDS management server: the ADS client, its protocol's types, and the resources as rules. */
export { loadXdsConfig, type XdsResource } from './xds-resources.js';
export { ADS_SERVICE, RATE_LIMIT_CONFIG_TYPE_URL, STREAM_AGGREGATED_RESOURCES_PATH, xdsTypes, type XdsTypes } from './xds-protos.js';
export { AdsClient, type AdsClientOptions, type AdsEvent } from './ads-client.js';
