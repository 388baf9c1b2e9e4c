// Derives a notification's cronExpression and humanReadableSchedule from its schedule fields.
// Ranges (a gap in the spec, our choice): hour 0-23, minute 0-59, dayOfWeek 0-6 with 0 = Sunday (cron's numbering),
// dayOfMonth 1-31.

export const SCHEDULE_TYPES = ['HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'CUSTOM'];
export const RANGES = { hour: [0, 23], minute: [0, 59], dayOfWeek: [0, 6], dayOfMonth: [1, 31] };
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** @param {number} n */
const two = (n) => String(n).padStart(2, '0');
/** @param {number} n */
function ordinal(n) {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th');
  return `${n}${s}`;
}

const CRON_FIELD = /^(\*|\d+(-\d+)?)(\/\d+)?(,(\*|\d+(-\d+)?)(\/\d+)?)*$/;
const CRON_LIMITS = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 7],
];

/** A five-field cron expression with numbers, ranges, steps and lists. @param {string} cron */
export function isValidCron(cron) {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) {
    return false;
  }
  return fields.every((f, i) => {
    if (!CRON_FIELD.test(f)) {
      return false;
    }
    const [lo, hi] = CRON_LIMITS[i];
    return (f.match(/\d+/g) ?? []).every((d, j, all) => {
      const isStep = f.includes('/') && j === all.length - 1 && f.endsWith(`/${d}`);
      return isStep ? Number(d) >= 1 : Number(d) >= lo && Number(d) <= hi;
    });
  });
}

/** Describes a custom cron: simple shapes in words, anything else quoted. @param {string} cron */
function describeCustom(cron) {
  const [m, h, dom, mon, dow] = cron.trim().split(/\s+/);
  const num = /^\d+$/;
  if (num.test(m) && num.test(h) && mon === '*') {
    const at = `at ${two(Number(h))}:${two(Number(m))}`;
    if (dom === '*' && dow === '*') {
      return `Every day ${at}`;
    }
    if (dom === '*' && dow === '1-5') {
      return `Every weekday ${at}`;
    }
    if (dom === '*' && num.test(dow)) {
      return `Every ${DAYS[Number(dow) % 7]} ${at}`;
    }
    if (num.test(dom) && dow === '*') {
      return `On the ${ordinal(Number(dom))} of every month ${at}`;
    }
  }
  return `Custom schedule (cron "${cron.trim()}")`;
}

/**
 * @param {{scheduleType:string, hour:number, minute:number, dayOfWeek:number, dayOfMonth:number, customCron?:string|null}} s
 * @returns {{cronExpression:string, humanReadableSchedule:string}}
 */
export function deriveSchedule(s) {
  const at = `at ${two(s.hour)}:${two(s.minute)}`;
  switch (s.scheduleType) {
    case 'HOURLY':
      return { cronExpression: `${s.minute} * * * *`, humanReadableSchedule: `Every hour at minute ${s.minute}` };
    case 'DAILY':
      return { cronExpression: `${s.minute} ${s.hour} * * *`, humanReadableSchedule: `Every day ${at}` };
    case 'WEEKLY':
      return {
        cronExpression: `${s.minute} ${s.hour} * * ${s.dayOfWeek}`,
        humanReadableSchedule: `Every ${DAYS[s.dayOfWeek]} ${at}`,
      };
    case 'MONTHLY':
      return {
        cronExpression: `${s.minute} ${s.hour} ${s.dayOfMonth} * *`,
        humanReadableSchedule: `On the ${ordinal(s.dayOfMonth)} of every month ${at}`,
      };
    case 'CUSTOM': {
      const cron = (s.customCron ?? '').trim().replace(/\s+/g, ' ');
      return { cronExpression: cron, humanReadableSchedule: describeCustom(cron) };
    }
    default:
      throw new Error(`unknown scheduleType ${s.scheduleType}`);
  }
}
