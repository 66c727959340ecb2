// Writes the compact price snapshot Loopscope ships (genai-prices.json) from the
// @pydantic/genai-prices package installed next to this script (package.json pins it).
// Only what Loopscope reads is kept: per provider its id, API URL pattern and model
// and provider match; per model its id, match rules, context window and the prices per million
// tokens that apply today (time-conditional prices resolved at the snapshot date,
// tiered prices at their base tier).
import { findProvider } from '@pydantic/genai-prices';
import { readFileSync, writeFileSync } from 'node:fs';

// The providers whose APIs Loopscope's protocols reach (directly or OpenAI-compatible).
const providerIds = ['openai', 'anthropic', 'google', 'mistral', 'deepseek', 'groq', 'x-ai',
                     'together', 'fireworks', 'cerebras', 'openrouter', 'azure', 'perplexity',
                     'moonshotai', 'novita', 'zai'];
const priceKeys = { input_mtok: 'input', output_mtok: 'output', cache_read_mtok: 'cacheRead',
                    cache_write_mtok: 'cacheWrite' };

const snapshotDate = process.argv[2] ?? new Date().toISOString().slice(0, 10);
const pkg = JSON.parse(readFileSync(new URL('./node_modules/@pydantic/genai-prices/package.json',
                                            import.meta.url)));

function base(value) {
    if (typeof value === 'number')
        return value;
    if (value && typeof value.base === 'number')
        return value.base; // TieredPrices: the price below the first threshold
    return undefined;
}

function currentPrices(prices, now) {
    if (!Array.isArray(prices))
        return prices;
    // Conditional prices: the last one whose start date has passed (time-of-day discounts ignored).
    let chosen = prices[0]?.prices;
    for (const entry of prices) {
        const start = entry.constraint?.start_date;
        if (!entry.constraint || (start && new Date(start) <= now))
            chosen = entry.prices;
    }
    return chosen;
}

const now = new Date(snapshotDate + 'T00:00:00Z');
const providers = [];
for (const id of providerIds) {
    const provider = findProvider({ providerId: id });
    if (!provider)
        throw new Error(`provider ${id} is no longer in the package`);
    const models = [];
    for (const model of provider.models) {
        const prices = currentPrices(model.prices, now) ?? {};
        const compact = { id: model.id, match: model.match };
        for (const [key, name] of Object.entries(priceKeys)) {
            const value = base(prices[key]);
            if (value !== undefined)
                compact[name] = value;
        }
        if (model.context_window)
            compact.contextWindow = model.context_window;
        if (compact.input === undefined && compact.output === undefined && !compact.contextWindow)
            continue;
        models.push(compact);
    }
    const entry = { id: provider.id, apiPattern: provider.api_pattern, models };
    if (provider.provider_match)
        entry.providerMatch = provider.provider_match;
    if (provider.model_match)
        entry.modelMatch = provider.model_match;
    if (provider.fallback_model_providers)
        entry.fallbacks = provider.fallback_model_providers;
    providers.push(entry);
}

const snapshot = { source: pkg.name, version: pkg.version, license: pkg.license, snapshotDate,
                   unit: 'USD per million tokens', providers };
writeFileSync(new URL('./genai-prices.json', import.meta.url), JSON.stringify(snapshot) + '\n');
console.log(`genai-prices.json: ${pkg.name} ${pkg.version}, ${snapshotDate}, ${providers.length} providers`);
