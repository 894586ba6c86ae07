/**
 * The widgets module: serves the guest widget pages built from widget/ (Preact + Vite), their theme
 * stylesheets, assets and the embed loader. It owns no tables: the venues module says which widget a
 * public id names and gives its public config.
 */
export { widgetBuildLoader } from './widget-build.js';
export { createWidgetPages } from './widget-pages.service.js';
export { widgetRoutes } from './widgets.routes.js';
