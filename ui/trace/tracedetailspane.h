#pragma once

#include <QJsonObject>
#include <QPointer>
#include <QTimer>
#include <QWidget>

class QAction;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTreeWidget;

namespace Loopscope {
class TraceModel;
}

namespace Loopscope::Ui {

/*!
    Everything recorded about one trace step: a header with its status,
    timing, tokens and retry attempts, and the step as pretty-printed JSON
    (request, response, arguments or result) with a search that highlights
    every match. Secrets are masked in what it shows and in what it copies:
    the JSON, and for a model call a curl command replaying the last attempt.
    It follows the model, so a running step's details fill in as it finishes.
*/
class TraceDetailsPane final : public QWidget
{
    Q_OBJECT

public:
    explicit TraceDetailsPane(TraceModel *model, QWidget *parent = nullptr);

    // The step to show; -1 shows nothing.
    void setNode(int nodeId);
    int node() const { return m_node; }

    QString jsonText() const { return m_json; } // what "Copy as JSON" copies
    QString curlText() const { return m_curl; } // empty unless a model call recorded a request

    int matchCount() const { return int(m_matches.size()); }
    int currentMatch() const { return m_currentMatch; } // index into the matches, -1 when none
    void findNext();
    void findPrevious();

    QPlainTextEdit *textView() const { return m_text; }
    QLineEdit *searchField() const { return m_search; }
    QTreeWidget *attemptsView() const { return m_attempts; }
    QAction *copyJsonAction() const { return m_copyJson; }
    QAction *copyCurlAction() const { return m_copyCurl; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void onDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight);
    void refresh();
    void showHeader(const QModelIndex &index, const QJsonObject &payload);
    void showAttempts(const QJsonObject &payload);
    void updateMatches(); // the search text changed: back to the first match
    void findMatches();   // the text changed: keep the current match
    void goToMatch(int match);
    void highlightMatches();
    void copyJson();
    void copyCurl();

    QPointer<TraceModel> m_model;
    int m_node = -1;
    QString m_json;
    QString m_curl;
    QList<qsizetype> m_matches; // positions in m_json
    int m_currentMatch = -1;
    QTimer m_refreshTimer;

    QLabel *m_icon;
    QLabel *m_title;
    QLabel *m_status;
    QLabel *m_facts;
    QTreeWidget *m_attempts;
    QLineEdit *m_search;
    QLabel *m_matchLabel;
    QPlainTextEdit *m_text;
    QAction *m_findNext;
    QAction *m_findPrevious;
    QAction *m_copyJson;
    QAction *m_copyCurl;
};

} // namespace Loopscope::Ui
