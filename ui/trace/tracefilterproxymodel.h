#pragma once

#include "agent/trace/tracenode.h"

#include <QList>
#include <QSortFilterProxyModel>

namespace Loopscope::Ui {

/*!
    Narrows the trace tree to the steps someone is looking for: some kinds, the
    calls of one tool, or only what went wrong. Criteria combine (all must
    hold); a row that matches keeps its ancestors, so a match is always seen in
    its turn and iteration. With no criteria every row shows.
*/
class TraceFilterProxyModel final : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    explicit TraceFilterProxyModel(QObject *parent = nullptr);

    // Empty: every kind.
    void setKinds(const QList<TraceKind> &kinds);
    QList<TraceKind> kinds() const;
    void setKindEnabled(TraceKind kind, bool enabled);

    // Tool calls whose tool name contains this text, ignoring case. Empty: no constraint.
    void setToolName(const QString &name);
    QString toolName() const { return m_toolName; }

    // Steps that failed, were blocked or denied, and error nodes.
    void setErrorsOnly(bool errorsOnly);
    bool errorsOnly() const { return m_errorsOnly; }

    void clearFilters();
    bool isFiltering() const;

signals:
    void filtersChanged();

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    void apply(quint32 kindMask, const QString &toolName, bool errorsOnly);

    quint32 m_kindMask = 0; // bit n set: TraceKind(n) shows; 0: all kinds
    QString m_toolName;
    bool m_errorsOnly = false;
};

} // namespace Loopscope::Ui
