// Service worker: per-tab buffers, routing, persistence. (Skeleton.)
import browser from 'webextension-polyfill';

browser.runtime.onInstalled.addListener(() => {});
