// UI strings of the emulated embed in a few languages; a locale falls back by language, then to English.

const STRINGS = {
  en: {
    loading: 'Loading…', filters: 'Filters', noFilters: 'No filters', timezone: 'Time zone', refreshed: 'Refreshes',
    overview: 'Overview', data: 'Data', export: 'Export', ask: 'Ask', askPlaceholder: 'Ask a question about this data',
    notFound: 'Page not found', rows: 'rows', total: 'Total', failed: 'Query failed', workspace: 'Workspace', move: 'Move',
    root: '(workspace root)', sessionExpired: 'Your session has expired. Reload the page to sign in again.', thinking: 'Thinking…',
    chat: 'Chat', history: 'History', drill: 'Details', today: 'Today', assistant: 'Assistant',
  },
  de: {
    loading: 'Wird geladen…', filters: 'Filter', noFilters: 'Keine Filter', timezone: 'Zeitzone', refreshed: 'Aktualisierungen',
    overview: 'Übersicht', data: 'Daten', export: 'Exportieren', ask: 'Fragen', askPlaceholder: 'Eine Frage zu diesen Daten stellen',
    notFound: 'Seite nicht gefunden', rows: 'Zeilen', total: 'Summe', failed: 'Abfrage fehlgeschlagen', workspace: 'Arbeitsbereich', move: 'Verschieben',
    root: '(oberste Ebene)', sessionExpired: 'Ihre Sitzung ist abgelaufen. Laden Sie die Seite neu.', thinking: 'Denke nach…',
    chat: 'Chat', history: 'Verlauf', drill: 'Details', today: 'Heute', assistant: 'Assistent',
  },
  fr: {
    loading: 'Chargement…', filters: 'Filtres', noFilters: 'Aucun filtre', timezone: 'Fuseau horaire', refreshed: 'Actualisations',
    overview: 'Aperçu', data: 'Données', export: 'Exporter', ask: 'Demander', askPlaceholder: 'Posez une question sur ces données',
    notFound: 'Page introuvable', rows: 'lignes', total: 'Total', failed: 'Échec de la requête', workspace: 'Espace de travail', move: 'Déplacer',
    root: '(racine)', sessionExpired: 'Votre session a expiré. Rechargez la page.', thinking: 'Réflexion…',
    chat: 'Discussion', history: 'Historique', drill: 'Détails', today: "Aujourd'hui", assistant: 'Assistant',
  },
  es: {
    loading: 'Cargando…', filters: 'Filtros', noFilters: 'Sin filtros', timezone: 'Zona horaria', refreshed: 'Actualizaciones',
    overview: 'Resumen', data: 'Datos', export: 'Exportar', ask: 'Preguntar', askPlaceholder: 'Haz una pregunta sobre estos datos',
    notFound: 'Página no encontrada', rows: 'filas', total: 'Total', failed: 'La consulta falló', workspace: 'Espacio de trabajo', move: 'Mover',
    root: '(raíz)', sessionExpired: 'Tu sesión ha caducado. Recarga la página.', thinking: 'Pensando…',
    chat: 'Chat', history: 'Historial', drill: 'Detalles', today: 'Hoy', assistant: 'Asistente',
  },
  ja: {
    loading: '読み込み中…', filters: 'フィルター', noFilters: 'フィルターなし', timezone: 'タイムゾーン', refreshed: '更新回数',
    overview: '概要', data: 'データ', export: 'エクスポート', ask: '質問', askPlaceholder: 'このデータについて質問する',
    notFound: 'ページが見つかりません', rows: '行', total: '合計', failed: 'クエリに失敗しました', workspace: 'ワークスペース', move: '移動',
    root: '(ルート)', sessionExpired: 'セッションの有効期限が切れました。ページを再読み込みしてください。', thinking: '考え中…',
    chat: 'チャット', history: '履歴', drill: '詳細', today: '今日', assistant: 'アシスタント',
  },
};

/** @typedef {keyof typeof STRINGS.en} Key */

/** @param {string} locale @returns {(key: Key) => string} */
export function translator(locale) {
  const lang = locale.toLowerCase().split('-')[0];
  const table = /** @type {Record<Key, string>} */ (STRINGS[/** @type {keyof typeof STRINGS} */ (lang)] ?? STRINGS.en);
  return (key) => table[key] ?? STRINGS.en[key];
}

/** Canonical form of a locale tag, or null when it is not one. @param {unknown} tag */
export function canonicalLocale(tag) {
  if (typeof tag !== 'string' || !tag.trim()) return null;
  try {
    return Intl.getCanonicalLocales(tag.trim())[0] ?? null;
  } catch {
    return null;
  }
}
