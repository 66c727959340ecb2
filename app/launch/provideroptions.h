#pragma once

#include "agent/config/providerprofile.h"

#include <QCommandLineOption>
#include <QCoreApplication>

#include <optional>

QT_BEGIN_NAMESPACE
class QCommandLineParser;
QT_END_NAMESPACE

namespace Loopscope::Launch {

/*!
    `--provider`, `--base-url`, `--model` and `--api-key-env`, spelled and
    checked the same way for `loopscope run` and for the window, and turned
    into a ProviderProfile that is used for this run and never saved.
*/
class ProviderOptions final
{
    Q_DECLARE_TR_FUNCTIONS(ProviderOptions)

public:
    // withModel false: no --model, for a command that names its model in an option of its own
    // (knowledge add's --embedding-model).
    explicit ProviderOptions(bool withModel = true);

    void addTo(QCommandLineParser &parser) const;
    bool isAnySet(const QCommandLineParser &parser) const;
    // The profile the options describe; nullopt with *error when a value is wrong.
    std::optional<ProviderProfile> profile(const QCommandLineParser &parser, QString *error) const;

    // The same four choices from elsewhere (a case of `loopscope eval`), checked
    // the same way; an unset field takes the provider's default.
    struct Choice
    {
        QString kind = QStringLiteral("openai");
        std::optional<QString> baseUrl;
        QString model;
        std::optional<QString> apiKeyEnv;
    };
    // \a modelHint ends the sentence when no model is named, e.g. "with --model".
    static std::optional<ProviderProfile> profile(const Choice &choice, const QString &modelHint,
                                                  QString *error);
    // What the command line chose, for a caller that then changes some of it.
    Choice choice(const QCommandLineParser &parser) const;

private:
    QCommandLineOption m_provider;
    QCommandLineOption m_baseUrl;
    QCommandLineOption m_model;
    QCommandLineOption m_apiKeyEnv;
    bool m_withModel = true;
};

} // namespace Loopscope::Launch
