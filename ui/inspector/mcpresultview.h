#pragma once

#include <QJsonObject>
#include <QTextBrowser>

namespace Loopscope {
struct McpCallOutcome;
}

namespace Loopscope::Ui {

/*!
    What a server answered, for a person: a tool's result (each content item:
    text, images drawn, audio and resources described; structured content;
    whether the tool reported an error), a resource's contents or a prompt's
    messages, each followed by the raw JSON the server sent.
*/
class McpResultView final : public QTextBrowser
{
    Q_OBJECT

public:
    explicit McpResultView(QWidget *parent = nullptr);

    void showCall(const McpCallOutcome &outcome);
    void showResource(const QString &uri, const QJsonObject &result);
    void showPrompt(const QString &name, const QJsonObject &result);
    void showFailure(const QString &sentence);
    void showWaiting(const QString &sentence);

    // What the last answer said in words: the heading and each item's text, for tests and copying.
    QString summary() const { return m_summary; }
    int imageCount() const { return m_images; }

private:
    QString contentItemHtml(const QJsonObject &item);
    QString rawHtml(const QJsonObject &json) const;
    void present(const QString &heading, const QString &body, const QJsonObject &raw);

    QString m_summary;
    int m_images = 0;
};

} // namespace Loopscope::Ui
