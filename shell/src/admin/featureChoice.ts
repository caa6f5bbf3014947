// A feature switch as set on a department or a person: 继承 (follow the level above), 开启 or
// 关闭; kept by the server as null, true or false.
import type { FeaturePolicy, FeaturePolicyOverride } from '@app/shared';
import { FEATURE_LABELS } from '@app/shared/admin';

export type FeatureKey = keyof FeaturePolicy;

/** Every feature switch with its label, in the order they are shown. */
export const FEATURE_SWITCHES = (Object.keys(FEATURE_LABELS) as FeatureKey[]).map((key) => ({ key, label: FEATURE_LABELS[key] }));

export type FeatureChoice = 'inherit' | 'on' | 'off';

export const FEATURE_CHOICE_OPTIONS: { value: FeatureChoice; label: string }[] = [
  { value: 'inherit', label: '继承' },
  { value: 'on', label: '开启' },
  { value: 'off', label: '关闭' },
];

export const toFeatureChoice = (v: boolean | null | undefined): FeatureChoice => (v === true ? 'on' : v === false ? 'off' : 'inherit');
export const fromFeatureChoice = (c: FeatureChoice): boolean | null => (c === 'on' ? true : c === 'off' ? false : null);

/** Every switch of an override as a choice (a missing override: all inherited). */
export const toFeatureChoices = (o: FeaturePolicyOverride | null | undefined) =>
  Object.fromEntries(FEATURE_SWITCHES.map((f) => [f.key, toFeatureChoice(o?.[f.key])])) as Record<FeatureKey, FeatureChoice>;

/** The override the choices stand for. */
export const fromFeatureChoices = (choices: Record<FeatureKey, FeatureChoice>) =>
  Object.fromEntries(FEATURE_SWITCHES.map((f) => [f.key, fromFeatureChoice(choices[f.key])])) as FeaturePolicyOverride;
