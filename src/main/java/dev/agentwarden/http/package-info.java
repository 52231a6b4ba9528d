/**
 * HTTP/1.x on Warden's own listeners: {@code RequestHead}, the one reader of a request line and its
 * headers for the resident's front and hook socket, the model proxy and the dashboard, under one set
 * of limits each caller sizes. Depends on nothing else in Warden.
 *
 * <p>Not on the in-process dispatch chain that HotPathClassLoadIT pins (the resident loads it).
 */
package dev.agentwarden.http;
