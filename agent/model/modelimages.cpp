#include "agent/model/modelimages.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace Loopscope::ModelImages {

namespace {

// Name prefixes (case-insensitive, after any "vendor/" or "models/" part) of text-only families.
struct Family
{
    QStringView provider; // empty: any provider serving a model of that name
    QStringView prefix;
};

constexpr Family TextOnly[] = {
    // OpenAI: GPT-3.5, the first GPT-4 (not -turbo or -o), o1-mini and o3-mini.
    {u"", u"gpt-3.5"},
    {u"", u"gpt-4-0613"},
    {u"", u"gpt-4-32k"},
    {u"", u"o1-mini"},
    {u"", u"o3-mini"},
    {u"", u"text-davinci"},
    // Anthropic: Claude 2 and Claude Instant.
    {u"anthropic", u"claude-2"},
    {u"anthropic", u"claude-instant"},
    // DeepSeek's API models (through an OpenAI-compatible profile).
    {u"", u"deepseek-chat"},
    {u"", u"deepseek-reasoner"},
    {u"", u"deepseek-coder"},
    // Ollama's library: text-only families (their vision siblings have other names:
    // llama3.2-vision, gemma3, qwen2.5vl, llava ...).
    {u"ollama", u"llama2"},
    {u"ollama", u"llama3:"},
    {u"ollama", u"llama3.1"},
    {u"ollama", u"llama3.2:"},
    {u"ollama", u"codellama"},
    {u"ollama", u"mistral:"},
    {u"ollama", u"mixtral"},
    {u"ollama", u"qwen2.5:"},
    {u"ollama", u"qwen2.5-coder"},
    {u"ollama", u"qwen3:"},
    {u"ollama", u"deepseek-r1"},
    {u"ollama", u"gemma2"},
    {u"ollama", u"phi3"},
    {u"ollama", u"phi4"},
    {u"ollama", u"gpt-oss"},
};

} // namespace

bool knownTextOnly(const QString &provider, const QString &model)
{
    QString name = model.trimmed().toLower();
    name = name.mid(name.lastIndexOf(u'/') + 1);
    // An Ollama model without a tag is its ":latest".
    if (provider == u"ollama" && !name.contains(u':'))
        name += u":latest"_s;
    if (name == u"gpt-4")
        return true;
    for (const Family &family : TextOnly) {
        if ((family.provider.isEmpty() || family.provider == provider) && name.startsWith(family.prefix))
            return true;
    }
    return false;
}

} // namespace Loopscope::ModelImages
